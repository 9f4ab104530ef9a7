/** Internal (project) API keys (WIRE §2.5): full values once at creation, then the last four characters. */
export interface InternalApiKeyJson {
  created_at_millis: number;
  description: string;
  expires_at_millis?: number;
  id: string;
  manually_revoked_at_millis?: number;
  publishable_client_key?: { last_four: string };
  secret_server_key?: { last_four: string };
  super_secret_admin_key?: { last_four: string };
}

export interface InternalApiKeyFirstViewJson extends Omit<InternalApiKeyJson, "publishable_client_key" | "secret_server_key" | "super_secret_admin_key"> {
  publishable_client_key?: string;
  secret_server_key?: string;
  super_secret_admin_key?: string;
}
