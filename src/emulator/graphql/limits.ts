// Bounds on a GraphQL document, checked before it is validated: validation's cost grows with the
// document (overlapping fields and fragment spreads: 1 300 chained fragments held the event loop
// ~150 ms each), so a document past them is refused on parsing. The token bound is graphql's own
// (`parse`'s `maxTokens`: parsing stops there); fragments and depth are counted on the parsed
// document, each fragment once. Every operation of the service's browser client, and an
// introspection query, fits with room to spare.
import { GraphQLError, Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';

export const DOCUMENT_LIMITS = {
  /** Lexical tokens in one document (the largest browser operation has 58, graphql's introspection query 163). */
  maxTokens: 1000,
  /** Fragment definitions in one document (introspection has 3). */
  maxFragments: 16,
  /** Nested selection sets, fragments expanded (introspection's type references reach 13). */
  maxDepth: 16,
} as const;

/** Subscriptions one graphql-transport-ws connection may hold at once (the browser client holds 2). */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 16;

/** Parses `query` within DOCUMENT_LIMITS: the document, or the one error that refuses it. */
export function parseBounded(query: string): DocumentNode {
  const document = parse(query, { maxTokens: DOCUMENT_LIMITS.maxTokens });
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  if (fragments.size > DOCUMENT_LIMITS.maxFragments)
    throw new GraphQLError(
      `the document has ${fragments.size} fragments; at most ${DOCUMENT_LIMITS.maxFragments} are served`,
    );
  // Each fragment's depth once (a cycle counts as 0 here: validation names it).
  const fragmentDepth = new Map<string, number>();
  const depthOf = (set: SelectionSetNode): number => {
    let deepest = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD)
        deepest = Math.max(deepest, selection.selectionSet ? depthOf(selection.selectionSet) : 0);
      else if (selection.kind === Kind.INLINE_FRAGMENT)
        deepest = Math.max(deepest, depthOf(selection.selectionSet) - 1);
      else {
        const name = selection.name.value;
        let depth = fragmentDepth.get(name);
        if (depth === undefined) {
          fragmentDepth.set(name, 0);
          const spread = fragments.get(name);
          depth = spread ? depthOf(spread) - 1 : 0;
          fragmentDepth.set(name, depth);
        }
        deepest = Math.max(deepest, depth);
      }
    }
    return deepest + 1;
  };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const depth = depthOf(definition.selectionSet);
    if (depth > DOCUMENT_LIMITS.maxDepth)
      throw new GraphQLError(`the operation is ${depth} levels deep; at most ${DOCUMENT_LIMITS.maxDepth} are served`);
  }
  return document;
}
