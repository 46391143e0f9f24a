/** Reading the server's work-done progress messages. Pure: no `vscode` import. */

/** "indexing 12/45 files" → {done: 12, total: 45}; a percentage alone gives no counts. */
export function parseCounts(message: string | undefined): { done: number; total: number } | undefined {
  const m = message?.match(/(\d+)\s*(?:\/|of)\s*(\d+)/);
  if (!m) {
    return undefined;
  }
  return { done: Number(m[1]), total: Number(m[2]) };
}

/** Whether a progress (by its begin title and message) is about indexing rather than a retrieval. */
export function isIndexingProgress(title: string | undefined, message?: string): boolean {
  return /\bindex/i.test(title ?? '') || (!title && /\bindex/i.test(message ?? ''));
}
