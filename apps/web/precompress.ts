import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

async function* filesIn(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesIn(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) next to every text file of `dir`, each only when it is
 * smaller than the file; the file itself is left as it is. The server picks a variant by Accept-Encoding
 * (@fastify/static `preCompressed`).
 */
export async function precompressDir(dir: string) {
  const written: string[] = [];
  for await (const file of filesIn(dir)) {
    const body = await readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: (await stat(file)).size,
        },
      }),
      gz(body, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length < body.length) written.push(file);
    await Promise.all([
      br.length < body.length ? writeFile(`${file}.br`, br) : undefined,
      gzipped.length < body.length ? writeFile(`${file}.gz`, gzipped) : undefined,
    ]);
  }
  return written;
}

/** Vite build step: once everything (public files included) is in the output folder, compress copies of it. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'impeto:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await precompressDir(outDir);
      this.info(`${files.length} arquivos pré-comprimidos (br, gz) em ${path.relative(process.cwd(), outDir) || '.'}`);
    },
  };
}
