import { streamDownload, streamUpload } from './stream-upload';

/*
 * A client in a process of its own (`inChild`), so that a test measures the server's memory only:
 *   node upload-client.js upload <base url> <slug> <question id> <size>   prints the StreamedUpload as JSON
 *   node upload-client.js download <url>                                   prints {status, headers, size, sha256}
 */
const [what, ...args] = process.argv.slice(2);
const run = async () => {
  if (what === 'upload') {
    const [url, slug, qid, size] = args;
    return streamUpload({ url: url! }, { slug: slug!, qid: qid! }, Number(size));
  }
  const r = await streamDownload(args[0]!);
  return { ...r, headers: Object.fromEntries(r.headers) };
};
run().then(
  (r) => {
    process.stdout.write(JSON.stringify(r));
    process.exit(0);
  },
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
