import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { t } from "../lib/i18n.ts";
import { CONFIRM_SENTENCES, confirmSentenceOk } from "../lib/port-form.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";

/** The typed confirmation when a fee pool differs from the target pool (spec §5). */
export function PoolConfirm({ onCancel, onConfirm }: { onCancel: () => void; onConfirm: () => void }) {
  const [text, setText] = useState("");
  return (
    <Modal
      title={t("editor.confirm_pool_title")}
      onClose={onCancel}
      testId="pool-confirm"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={onCancel}>
            {t("common.cancel")}
          </button>
          <button type="button" class={BTN_PRIMARY} disabled={!confirmSentenceOk(text)} onClick={onConfirm}>
            {t("common.confirm")}
          </button>
        </>
      }
    >
      <p class="mb-2 text-sm">{t("editor.confirm_pool_text")}</p>
      <ul class="mb-2 list-disc pl-5 font-mono text-xs text-acc">
        {CONFIRM_SENTENCES.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      <Field label={t("editor.confirm_pool_input")}>
        <input class={INPUT} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </Field>
    </Modal>
  );
}
