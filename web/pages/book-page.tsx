import { useState } from "react";
import { BookScreen } from "../features/book/book-screen.tsx";
import { buildSubmission, flightOf } from "../features/book/book-model.ts";
import { useBookStore } from "../features/book/book-store.ts";
import { RepeatDialog } from "../features/series/repeat-dialog.tsx";
import { repeatBaseOf, type RepeatBase } from "../features/series/series-api.ts";
import { WatchDialog } from "../features/watches/watch-dialog.tsx";
import { watchBaseOf, type WatchBase } from "../features/watches/watches-api.ts";
import { Button } from "../components/button.tsx";
import { useSessionStore } from "../lib/session-store.ts";
import { useText } from "../lib/text.ts";

export default function BookPage() {
  return (
    <>
      <BookScreen />
      <MoreFromBook />
    </>
  );
}

/**
 * With the form's date, course and players: "Watch for a free slot" once a date and course are
 * chosen, and "Repeat weekly" (a standing request) once a time is chosen too.
 */
function MoreFromBook() {
  const t = useText();
  const user = useSessionStore((s) => s.user);
  const date = useBookStore((s) => s.date);
  const course = useBookStore((s) => s.course);
  const hasTimes = useBookStore((s) => s.selection.length > 0);
  const isEditing = useBookStore((s) => s.editTarget !== null);
  const [base, setBase] = useState<WatchBase | null>(null);
  const [repeat, setRepeat] = useState<RepeatBase | null>(null);
  if (!user || !date || !course || isEditing) return null;
  const submissionNow = () => {
    const state = useBookStore.getState();
    return buildSubmission(state, flightOf(user, state), null);
  };
  return (
    <div className="page watch-from-book">
      <Button variant="secondary" onClick={() => setBase(watchBaseOf(submissionNow()))}>
        {t("watches.create")}
      </Button>
      {hasTimes ? (
        <Button variant="secondary" onClick={() => setRepeat(repeatBaseOf(submissionNow()))}>
          {t("series.repeat")}
        </Button>
      ) : null}
      <WatchDialog base={base} onClose={() => setBase(null)} />
      <RepeatDialog base={repeat} onClose={() => setRepeat(null)} />
    </div>
  );
}
