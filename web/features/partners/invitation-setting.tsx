/**
 * The Profile's playing partners' setting (decision 200): whom the member takes invitations from,
 * anyone, only members on their saved players list, or nobody. Saved as soon as it is chosen;
 * invitations already sent keep their state.
 */
import { useId, useState } from "react";
import { INVITATION_POLICIES, type InvitationPolicy } from "../../../src/domain/partners.ts";
import { useText, useTextLookup } from "../../lib/text.ts";
import { showToast } from "../../lib/toast-store.ts";
import { failureOf, saveInvitationSetting } from "./partners-api.ts";
import { useInvitations } from "./partners-section.tsx";

export function InvitationSetting() {
  const t = useText();
  const tryText = useTextLookup();
  const name = useId();
  const { invitations, reload } = useInvitations();
  const [saving, setSaving] = useState<InvitationPolicy | null>(null);
  const chosen = saving ?? invitations?.from ?? null;

  async function choose(from: InvitationPolicy) {
    setSaving(from);
    try {
      await saveInvitationSetting(from);
      showToast("success", { textKey: "partners.setting.saved_toast" });
      reload();
    } catch (error) {
      const failure = failureOf(error);
      showToast("error", { textKey: failure.errorKey ?? "partners.answer_failed", message: tryText(failure.errorKey, undefined, failure.message) ?? failure.message });
    } finally {
      setSaving(null);
    }
  }

  return (
    <section className="card profile-card" aria-labelledby={`${name}-title`}>
      <fieldset className="invitation-setting" disabled={!invitations || saving !== null}>
        <legend>
          <h2 id={`${name}-title`}>{t("partners.setting.title")}</h2>
        </legend>
        {INVITATION_POLICIES.map((policy) => (
          <label key={policy} className="field field--inline">
            <input type="radio" name={name} value={policy} checked={chosen === policy} onChange={() => void choose(policy)} />
            <span>{t(`partners.setting.${policy}`)}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
