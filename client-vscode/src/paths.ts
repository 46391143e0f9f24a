/**
 * Which file on disk a result row means: results carry paths relative to a root, and with several
 * roots the server may or may not say which. Pure: the existence check is passed in.
 */

import * as path from 'node:path';

/**
 * The absolute path of `rel`: under `root` when given, under the only root when there is one,
 * else under the first root where it exists (falling back to the first root).
 */
export function resolveResultPath(
  rel: string,
  root: string | undefined,
  roots: readonly string[],
  exists: (abs: string) => boolean,
): string | undefined {
  if (path.isAbsolute(rel)) {
    return rel;
  }
  if (root) {
    return path.join(root, rel);
  }
  if (roots.length === 0) {
    return undefined;
  }
  if (roots.length === 1) {
    return path.join(roots[0], rel);
  }
  for (const r of roots) {
    const abs = path.join(r, rel);
    if (exists(abs)) {
      return abs;
    }
  }
  return path.join(roots[0], rel);
}
