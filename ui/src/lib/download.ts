/**
 * File downloads from the API: fetched with the bearer token (a plain link would carry none), then
 * handed to the browser under `name`, or else the server's file name (Content-Disposition).
 */
import { apiUrl, getToken } from "./api.ts";

export async function download(path: string, name?: string): Promise<{ ok: boolean; status: number }> {
  const res = await fetch(apiUrl(path), { headers: { Authorization: `Bearer ${getToken() ?? ""}` } }).catch(
    () => null,
  );
  if (!res?.ok) return { ok: false, status: res?.status ?? 0 };
  const given = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1];
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await res.blob());
  a.download = name ?? given ?? "download";
  a.click();
  URL.revokeObjectURL(a.href);
  return { ok: true, status: res.status };
}
