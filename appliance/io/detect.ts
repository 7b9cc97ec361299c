/**
 * Which decoder an uploaded file gets (spec §5: Excel must be xlsx; anything else names the allowed
 * formats). The extension decides; an .xlsx must also be a zip container, so a renamed .xls or .csv is
 * refused here rather than failing obscurely inside the spreadsheet reader.
 */
import { ERR_FORMAT, type ImportError } from "./format.ts";

export type ImportFormat = "json" | "xlsx";

/** xlsx is a zip container: local file header "PK\x03\x04". */
function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export function detectImportFormat(filename: string, bytes: Uint8Array): ImportFormat | ImportError {
  const ext = filename.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  // a .json that does not parse gets the JSON decoder's more precise "not valid JSON"
  if (ext === "json") return "json";
  if (ext === "xlsx" && isZip(bytes)) return "xlsx";
  return ERR_FORMAT;
}
