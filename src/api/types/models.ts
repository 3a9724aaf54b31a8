// `GET /models`: the AI models an agent's prompt can use, and the values of a model's options.

export interface AIModel {
  id: string;
  name: string;
  modelOptions: { id: string; name: string; valueType: 'STRING' | 'INT' | 'FLOAT'; default: string }[];
  [field: string]: unknown;
}

export interface ModelOptionValue {
  optionId: string;
  value: string;
}
