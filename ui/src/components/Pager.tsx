import { t } from "../lib/i18n.ts";

interface Props {
  page: number;
  pages: number;
  size: number;
  total: number;
  onPage: (p: number) => void;
  onSize: (n: number) => void;
}

/** Previous / next paging with a page-size select. */
export function Pager({ page, pages, size, total, onPage, onSize }: Props) {
  const btn = "rounded border border-line px-2 py-0.5 disabled:opacity-40";
  return (
    <nav
      class="flex flex-wrap items-center justify-end gap-2 text-sm text-mute"
      aria-label={t("pager.label")}
    >
      <span>{t("pager.total", { total })}</span>
      <button
        type="button"
        class={btn}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={t("pager.prev")}
      >
        ‹
      </button>
      <span>
        {page} / {pages}
      </span>
      <button
        type="button"
        class={btn}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        aria-label={t("pager.next")}
      >
        ›
      </button>
      <label class="flex items-center gap-1">
        <span class="sr-only">{t("pager.size")}</span>
        <select
          class="rounded border border-line bg-panel2 px-1 text-fg"
          value={size}
          onChange={(e) => onSize(Number(e.currentTarget.value))}
        >
          {[10, 30, 50, 100].map((n) => (
            <option key={n} value={n}>
              {t("pager.per_page", { n })}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}
