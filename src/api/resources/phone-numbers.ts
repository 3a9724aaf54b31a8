// `api.phoneNumbers`: /phone_numbers. `create` purchases a searched number, imports a SIP number
// or creates a SIP username; `update` links an agent (`agentId: ''` unlinks); `delete` releases.
import { CrudResource, type RequestOptions } from '../resource.js';
import type {
  CreatePhoneNumberInput,
  PhoneNumber,
  PhoneNumberCandidate,
  PhoneNumberSearchInput,
  UpdatePhoneNumberInput,
} from '../types/phone-numbers.js';

export class PhoneNumbersResource extends CrudResource<PhoneNumber, CreatePhoneNumberInput, UpdatePhoneNumberInput> {
  protected readonly path = '/phone_numbers';

  /** `POST /phone_numbers/search`: numbers available to purchase. */
  search(input: PhoneNumberSearchInput, options?: RequestOptions): Promise<PhoneNumberCandidate[]> {
    return this.client.call('POST', '/phone_numbers/search', { body: input, shape: 'array' }, options);
  }

  /** `POST /phone_numbers/purchase`. @deprecated use `create({ type: 'purchase', purchase: { number } })`. */
  purchase(input: { number: string }, options?: RequestOptions): Promise<PhoneNumber> {
    return this.client.call('POST', '/phone_numbers/purchase', { body: input }, options);
  }
}
