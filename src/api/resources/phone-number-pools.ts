// `api.phoneNumberPools`: /phone_number_pools (the path is this client's and the emulator's
// convention; the seed lists the operations without one).
import { ItemResource, type RequestOptions } from '../resource.js';
import type {
  CreatePhoneNumberPoolInput,
  PhoneNumberPool,
  UpdatePhoneNumberPoolInput,
} from '../types/phone-numbers.js';

export class PhoneNumberPoolsResource extends ItemResource<
  PhoneNumberPool,
  CreatePhoneNumberPoolInput,
  UpdatePhoneNumberPoolInput
> {
  protected readonly path = '/phone_number_pools';

  /** `GET /phone_number_pools`: a bare array, not paginated. */
  list(options?: RequestOptions): Promise<PhoneNumberPool[]> {
    return this.client.call('GET', this.path, { shape: 'array' }, options);
  }
}
