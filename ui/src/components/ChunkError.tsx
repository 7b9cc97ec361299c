import { t } from "../lib/i18n.ts";

/** Shown in place of a part of the console whose script could not be loaded. */
export function ChunkError() {
  return (
    <p role="alert" class="rounded border border-bad p-3 text-sm text-bad">
      {t("err.chunk")}{" "}
      <button type="button" class="underline" onClick={() => location.reload()}>
        {t("err.reload")}
      </button>
    </p>
  );
}
