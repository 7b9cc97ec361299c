/** Secure access route (spec §5): English letters only; no //, no leading or trailing /, no ?. */
export function validateRoute(route: string): string | null {
  const r = route.trim();
  if (r === "" || r.includes("//") || r.startsWith("/") || r.endsWith("/") || r.includes("?"))
    return "lang.route.err_format";
  return /^[A-Za-z]+$/.test(r) ? null : "lang.route.err_format";
}

/** The value as sent to the server: with a trailing slash ("" removes the route). */
export function routeToWire(route: string): string {
  return route.trim() === "" ? "" : `${route.trim()}/`;
}
