import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomToken } from './crypto.ts';

export interface StoredObject {
  bytes: Buffer;
  contentType: string;
}

/** Where uploaded files live; keys are `/`-separated relative names such as `<gero_id>/<uuid>.png`. */
export interface Storage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | undefined>;
  /** Removing a key that is not there is not an error. */
  delete(key: string): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Files under one root folder. The content type is read back from the extension the key carries. */
export function createLocalStorage(root: string): Storage {
  const fileOf = (key: string) => {
    if (!KEY.test(key) || key.split('/').includes('..')) throw new Error(`storage: chave inválida ${key}`);
    return path.join(root, ...key.split('/'));
  };
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const temp = `${file}.${randomToken().slice(0, 8)}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, file);
    },
    async get(key) {
      try {
        const bytes = await readFile(fileOf(key));
        return { bytes, contentType: CONTENT_TYPES[path.extname(key)] ?? 'application/octet-stream' };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

/** The media store of a deployment: `${DATA_DIR}/media` on local disk (an S3-compatible one can replace it). */
export const createMediaStorage = (config: { dataDir: string }) =>
  createLocalStorage(path.join(config.dataDir, 'media'));
