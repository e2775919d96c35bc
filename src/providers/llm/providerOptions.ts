/** What an HTTP provider is built from; unset fields take the provider's defaults (see defaults.ts). */
export interface HttpProviderOptions {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
}

/** What an agent-CLI provider is built from. */
export interface CliProviderOptions {
  model?: string;
  timeoutMs?: number;
  /** The child's environment; its PATH decides which executable runs. Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Executable name or path, for a CLI installed under another name. */
  command?: string;
  /** Extra arguments placed before the prompt marker, for flags cairn does not know about. */
  extraArgs?: string[];
}
