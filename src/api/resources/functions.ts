// `api.functions`: /functions, the functions agents call during a dial. `list` filters by
// `displayName` (an exact match); `delete` also unlinks the function from every agent.
import { CrudResource } from '../resource.js';
import type {
  CreateFunctionInput,
  FunctionDefinition,
  ListFunctionsOptions,
  UpdateFunctionInput,
} from '../types/functions.js';

export class FunctionsResource extends CrudResource<
  FunctionDefinition,
  CreateFunctionInput,
  UpdateFunctionInput,
  ListFunctionsOptions
> {
  protected readonly path = '/functions';
}
