import { fileURLToPath } from 'node:url';
import { ENTRY_POINTS, type Subpath, specifier } from './entry-points.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Tests and examples import the package by its public name, as users do: these map it to src/. */
export const packageAliases = Object.entries(ENTRY_POINTS).map(([subpath, source]) => ({
  find: new RegExp(`^${escapeRegExp(specifier(subpath as Subpath))}$`),
  replacement: fileURLToPath(new URL(`./${source}`, import.meta.url)),
}));
