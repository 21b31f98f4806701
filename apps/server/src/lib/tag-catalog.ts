import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface TagCatalog {
  dir: string;
  gero: string[];
  cnsw: string[];
  /** Tracker versions that have the GCD injector chunk (gero/<v>/dcm.min.js). */
  dcm: string[];
  latestGero: string;
  latestCnsw: string;
  loader: string;
}

const byVersion = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });

/** The tag builds that really exist (packages/tracker builds them); read once at start-up. */
export function loadTagCatalog(dir: string): TagCatalog {
  const manifest = path.join(dir, 'versions.json');
  if (!existsSync(manifest)) {
    throw new Error(`Arquivos da tag não encontrados em ${dir}. Rode "npm run build:tracker".`);
  }
  const versions = JSON.parse(readFileSync(manifest, 'utf8')) as { gero: string[]; cnsw: string[]; dcm?: string[] };
  const gero = [...versions.gero].sort(byVersion);
  const cnsw = [...versions.cnsw].sort(byVersion);
  return {
    dir,
    gero,
    cnsw,
    dcm: versions.dcm ?? [],
    latestGero: gero.at(-1) ?? '',
    latestCnsw: cnsw.at(-1) ?? '',
    loader: readFileSync(path.join(dir, 'loader.js'), 'utf8'),
  };
}
