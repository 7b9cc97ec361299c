/**
 * The console's first load stays within its budget (design.md: 80 KB gzip for index.html and every
 * chunk the entry imports statically). A size, not a time: the built files are what a farm's browser
 * downloads before it can show anything. `make test` builds ui/dist before this folder runs.
 */
import { expect, test } from "bun:test";
import { firstLoad } from "../../bench/ui-size.ts";

test("the console's first load is at most 80 KB gzip", () => {
  const { total, chunks } = firstLoad();
  expect(chunks.size).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(80 * 1024);
});
