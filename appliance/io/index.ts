/** Port import/export codecs (spec §2 Import/Export): pure functions, no HTTP, no storage. */
export { detectImportFormat, type ImportFormat } from "./detect.ts";
export {
  ERR_FORMAT,
  ERR_LIMITS,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportDocument,
  type ExportPort,
  type ExportWallet,
  IMPORT_LIMITS,
  type ImportError,
  type ImportErrorKey,
  type ImportResult,
  type ImportRow,
  type RawPort,
  toExportPort,
} from "./format.ts";
export { decodeImportJson, encodeExportJson } from "./json.ts";
export { decodeXlsx, encodeXlsx, XLSX_COLUMNS } from "./xlsx.ts";
