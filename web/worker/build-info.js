// build.json, fetched once per engine worker: boot.js reads its sizes and cache name,
// worker/brotli.js the hashes a first visit's decoded archive is checked against.  On a
// first visit the decoding asks first, as its download begins; boot.js then has it.

const URL_ = new URL("../build.json", import.meta.url); // this file is worker/build-info.js

let loading = null;

/** build.json's contents (a promise, the same for every caller); `fetchImpl` is the
 *  first caller's fetch. */
export function loadBuildInfo(fetchImpl) {
  loading ??= (async () => {
    const response = await fetchImpl(URL_.href, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`build.json could not be loaded (HTTP ${response.status})`);
    return response.json();
  })();
  return loading;
}
