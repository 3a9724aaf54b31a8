// `api.phoneNumbers`: /phone_numbers.
import { Resource, segment, type RequestOptions } from '../resource.js';
import type { ListOptions, Page } from '../types/pagination.js';
import type {
  CreatePhoneNumberInput,
  PhoneNumber,
  PhoneNumberCandidate,
  PhoneNumberSearchInput,
  UpdatePhoneNumberInput,
} from '../types/phone-numbers.js';

export class PhoneNumbersResource extends Resource {
  /** `GET /phone_numbers`. */
  list(list: ListOptions = {}, options?: RequestOptions): Promise<Page<PhoneNumber>> {
    return this.client.page('/phone_numbers', list, options);
  }

  /** `POST /phone_numbers`: purchase a searched number, import a SIP number, or create a SIP username. */
  create(input: CreatePhoneNumberInput, options?: RequestOptions): Promise<PhoneNumber> {
    return this.client.call('POST', '/phone_numbers', { body: input }, options);
  }

  /** `GET /phone_numbers/{id}`. */
  get(numberId: string, options?: RequestOptions): Promise<PhoneNumber> {
    return this.client.call('GET', `/phone_numbers/${segment(numberId)}`, {}, options);
  }

  /** `PUT /phone_numbers/{id}`: link an agent (`agentId: ''` unlinks). */
  update(numberId: string, input: UpdatePhoneNumberInput, options?: RequestOptions): Promise<PhoneNumber> {
    return this.client.call('PUT', `/phone_numbers/${segment(numberId)}`, { body: input }, options);
  }

  /** `DELETE /phone_numbers/{id}`: answers the released number. */
  delete(numberId: string, options?: RequestOptions): Promise<PhoneNumber> {
    return this.client.call('DELETE', `/phone_numbers/${segment(numberId)}`, {}, options);
  }

  /** `POST /phone_numbers/search`: numbers available to purchase. */
  search(input: PhoneNumberSearchInput, options?: RequestOptions): Promise<PhoneNumberCandidate[]> {
    return this.client.call('POST', '/phone_numbers/search', { body: input, shape: 'array' }, options);
  }

  /** `POST /phone_numbers/purchase`. @deprecated use `create({ type: 'purchase', purchase: { number } })`. */
  purchase(input: { number: string }, options?: RequestOptions): Promise<PhoneNumber> {
    return this.client.call('POST', '/phone_numbers/purchase', { body: input }, options);
  }
}
