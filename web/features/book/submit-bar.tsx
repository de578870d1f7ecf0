import { Button } from "../../components/button.tsx";
import { useText } from "../../lib/text.ts";
import { useBookStore } from "./book-store.ts";
import { PartnerOptions } from "./partner-options.tsx";
import type { SubmitState } from "./use-submit-booking.ts";

/**
 * The submit button with its error line right beside it, and the flight's partners' option and
 * warnings above (unless the layout shows them elsewhere: the phone's wizard, in its review step).
 */
export function SubmitBar({ submitState, showsPartnerOptions = true }: { submitState: SubmitState; showsPartnerOptions?: boolean }) {
  const t = useText();
  const isEditingBooking = useBookStore((s) => s.editTarget !== null);
  return (
    <div className="submit-bar">
      {showsPartnerOptions ? <PartnerOptions /> : null}
      {submitState.errorText ? (
        <p className="form-error submit-bar__error" role="alert">
          {submitState.errorText}
        </p>
      ) : null}
      <Button className="submit-bar__button" isLoading={submitState.isSubmitting} onClick={() => void submitState.submit()}>
        {submitState.isSubmitting ? t("book.submitting") : isEditingBooking ? t("book.submit_edit") : t("book.submit")}
      </Button>
    </div>
  );
}
