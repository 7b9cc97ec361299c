/**
 * The console page names its own base: `<base href>` written by the server into index.html, not by a
 * script at run time, because the browser's preload scanner fetches `assets/app-….js` as soon as it
 * reads the script tag — before any inline script runs — and a deep link such as /Farm/system/pool
 * would resolve it to /Farm/system/assets/… (a 404) when the base is not in the markup already.
 */
const BASE_TAG = /<base href="[^"]*">/;

/** The URL path the console lives under: "/" or "/<route>/" with a secure route set. */
export function consoleBase(route: string): string {
  const name = route.replace(/^\/+|\/+$/g, "");
  return name === "" ? "/" : `/${name}/`;
}

/** index.html with its base tag pointing at `base` (the file as built says "/"). */
export function withBase(html: string, base: string): string {
  if (!BASE_TAG.test(html)) throw new Error('index.html has no <base href="..."> tag to rewrite');
  const safe = base.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return html.replace(BASE_TAG, `<base href="${safe}">`);
}
