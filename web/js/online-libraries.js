// The online table's libraries (vendor/online/online.js: Trystero's two signalling
// strategies and the QR writer, bundled by tools/vendor.py), imported on first use only:
// nothing connects to anything, and nothing is fetched, before a table is opened or
// joined.  The file is named from the page's own address (the site's root, under any
// sub-path), not from this module's: the site's bundle moves this code into whichever
// of its files uses it (tools/bundle.mjs), and a path relative to the module would then
// point elsewhere.

export const onlineLibraries = () => import(new URL("vendor/online/online.js", document.baseURI).href);
