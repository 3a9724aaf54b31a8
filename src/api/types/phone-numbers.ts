// `/phone_numbers` and `/phone_number_pools`.

export interface PhoneNumber {
  id: string;
  /** E.164, or the SIP username when `type` is `SIP_USERNAME`. */
  number: string;
  type: 'PSTN' | 'SIP_USERNAME';
  agentId: string | null;
  [field: string]: unknown;
}

export type CreatePhoneNumberInput =
  | { type: 'purchase'; purchase: { number: string } }
  | {
      type: 'sip_import';
      sipImport: { phoneNumber: string; terminationUri: string; username: string; password: string };
    }
  | { type: 'vogent_sip'; vogentSip: { sipPrefix: string; username: string; password: string } };

export interface UpdatePhoneNumberInput {
  /** The agent that answers this number; the empty string unlinks it. */
  agentId: string;
}

export interface PhoneNumberSearchInput {
  /** Without the country code. */
  prefix: string;
  /** Two letters; default `US`. */
  country?: string;
  /** Default 5, at most 10. */
  limit?: number;
}

export interface PhoneNumberCandidate {
  number: string;
}

/** Not shown by the seed: the emulator's shape. `GET /phone_number_pools` answers a bare array. */
export interface PhoneNumberPool {
  id: string;
  name: string;
  phoneNumberIds: string[];
  createdAt?: string;
  [field: string]: unknown;
}

export interface CreatePhoneNumberPoolInput {
  name: string;
  phoneNumberIds?: string[];
}

export type UpdatePhoneNumberPoolInput = Partial<CreatePhoneNumberPoolInput>;
