import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ACCOUNT_EXPORT_README, AccountExportService, type Formloom } from '@formloom/core';

/**
 * `formloom user export`: the ZIP a person downloads from their account page (`GET /account/export`, docs/accounts.md
 * "Your data"), written to `file` for an operator answering a request made by other means. The file is the
 * person's data: readable by its owner only, written under a temporary name, and never over an existing file.
 */
export async function writeAccountArchive(formloom: Formloom, user: { id: string; email: string }, file: string) {
  const target = resolve(file);
  if (await stat(target).then(() => true, () => false)) throw new Error(`${target} exists already: name a new file`);
  const { documents, files } = await formloom.service(AccountExportService).collect({ user_id: user.id, key_id: null, scope: 'forms' });
  // Loaded here: the other commands never need it.
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  zip.file('README.txt', ACCOUNT_EXPORT_README);
  for (const [path, doc] of Object.entries(documents)) zip.file(path, `${JSON.stringify(doc, null, 2)}\n`);
  const written: string[] = [];
  for (const f of files) {
    // A file deleted since the list was read (an audio's retention ended) is left out, as the API leaves it.
    const data = await f.read();
    if (data) zip.file(f.path, data), written.push(f.path);
  }
  const partial = `${target}.${process.pid}.partial`;
  try {
    await pipeline(zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE' }), createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
    await rename(partial, target);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  return { file: target, bytes: (await stat(target)).size, user_id: user.id, email: user.email, documents: ['README.txt', ...Object.keys(documents)], files: written };
}
