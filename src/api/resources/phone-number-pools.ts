// `api.phoneNumberPools`: /phone_number_pools (the path is this client's and the emulator's
// convention; the seed lists the operations without one).
import { Resource, segment, type RequestOptions } from '../resource.js';
import type {
  CreatePhoneNumberPoolInput,
  PhoneNumberPool,
  UpdatePhoneNumberPoolInput,
} from '../types/phone-numbers.js';

export class PhoneNumberPoolsResource extends Resource {
  /** `GET /phone_number_pools`: a bare array, not paginated. */
  list(options?: RequestOptions): Promise<PhoneNumberPool[]> {
    return this.client.call('GET', '/phone_number_pools', { shape: 'array' }, options);
  }

  /** `POST /phone_number_pools`. */
  create(input: CreatePhoneNumberPoolInput, options?: RequestOptions): Promise<PhoneNumberPool> {
    return this.client.call('POST', '/phone_number_pools', { body: input }, options);
  }

  /** `GET /phone_number_pools/{id}`. */
  get(poolId: string, options?: RequestOptions): Promise<PhoneNumberPool> {
    return this.client.call('GET', `/phone_number_pools/${segment(poolId)}`, {}, options);
  }

  /** `PUT /phone_number_pools/{id}`. */
  update(poolId: string, input: UpdatePhoneNumberPoolInput, options?: RequestOptions): Promise<PhoneNumberPool> {
    return this.client.call('PUT', `/phone_number_pools/${segment(poolId)}`, { body: input }, options);
  }
}
