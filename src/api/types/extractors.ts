// `/agents/{agentId}/extractors`: what an agent extracts from a call, described by a JSON schema.

export interface CreateExtractorInput {
  name: string;
  /** A JSON schema as text (`JSON.stringify(schema)`). */
  extractorFieldsJsonSchema: string;
}

export type UpdateExtractorInput = Partial<CreateExtractorInput>;

export interface Extractor extends CreateExtractorInput {
  id: string;
}

/** `GET /agents/{id}/extractors`: the one listing without a cursor. */
export interface ExtractorList {
  extractors: Extractor[];
}
