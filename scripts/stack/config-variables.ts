/**
 * The `${env:NAME:-default}` variables of a collector config (the stack's collector, Jaeger v2), found with
 * their defaults: a default may itself hold a variable (`${env:A:-${env:B:-x}}`).
 */
import { readFileSync } from 'node:fs';

export interface ConfigVariable {
  readonly name: string;
  readonly defaultValue: string;
}

export function configVariables(file: string): ConfigVariable[] {
  const text = readFileSync(file, 'utf8');
  const found: ConfigVariable[] = [];
  const opening = /\$\{env:(\w+):-/g;
  for (let match = opening.exec(text); match !== null; match = opening.exec(text)) {
    // the default runs to the brace that closes this reference, nested references included
    let depth = 1;
    let end = opening.lastIndex;
    for (; end < text.length && depth > 0; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}') depth--;
    }
    found.push({ name: match[1]!, defaultValue: text.slice(opening.lastIndex, end - 1) });
  }
  return found;
}
