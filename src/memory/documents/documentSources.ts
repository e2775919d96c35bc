import { httpUrl } from "./fetchUrl.js";
import type { DocumentSource } from "./queueDocuments.js";
import { documentFiles } from "./readDocumentFile.js";

/** What names a document on every door (the checked ingest request's source fields). */
export interface IngestSourceFields {
  path?: string | undefined;
  url?: string | undefined;
  content?: string | undefined;
  title?: string | undefined;
}

/**
 * The documents an ingest request names: each document file of a path (a folder gives many), the URL,
 * or the text given. A URL is checked for its scheme here, before anything is stored.
 */
export function documentSourcesOf(fields: IngestSourceFields): DocumentSource[] {
  if (fields.path !== undefined) return documentFiles(fields.path).map((source) => ({ sourceType: "file", source }));
  if (fields.url !== undefined) return [{ sourceType: "url", source: httpUrl(fields.url).href }];
  const title = fields.title ?? "";
  return [{ sourceType: "text", source: `text: ${title}`, title, content: fields.content ?? "" }];
}

/** Whether a CLI argument names a URL rather than a path. */
export function looksLikeUrl(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
}
