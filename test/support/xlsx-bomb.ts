/**
 * The xlsx of the trust issue's attack: a tiny workbook (two cells) whose sheet declares a huge
 * range. Built by editing the sheet XML inside the zip, since writing such a sheet with SheetJS
 * would walk the range. Used by the import test and the hostile-request benchmark.
 */
import * as XLSX from "@e965/xlsx";

interface ZipEntry {
  content: Uint8Array;
}
interface Zip {
  FullPaths: string[];
  FileIndex: ZipEntry[];
}
const CFB = (
  XLSX as unknown as {
    CFB: { read(b: Uint8Array, o: object): Zip; write(z: Zip, o: object): number[] };
  }
).CFB;

/** The workbook, its sheet declaring `range` (e.g. A1:XFD1048576). */
export function declaredRangeBomb(range: string): Uint8Array<ArrayBuffer> {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet([
      ["port", "currency"],
      [4000, "BTC"],
    ]),
    "ports",
  );
  const zip = CFB.read(new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" })), {
    type: "array",
  });
  const sheet = zip.FileIndex[zip.FullPaths.findIndex((p) => p.endsWith("sheet1.xml"))] as ZipEntry;
  const xml = new TextDecoder().decode(sheet.content);
  sheet.content = new TextEncoder().encode(
    xml.replace(/<dimension ref="[^"]+"\/>/, `<dimension ref="${range}"/>`),
  );
  return new Uint8Array(CFB.write(zip, { fileType: "zip", type: "array", compression: true }));
}
