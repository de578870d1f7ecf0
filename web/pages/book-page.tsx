import { useState } from "react";
import { BookScreen } from "../features/book/book-screen.tsx";
import { buildSubmission, flightOf } from "../features/book/book-model.ts";
import { useBookStore } from "../features/book/book-store.ts";
import { WatchDialog } from "../features/watches/watch-dialog.tsx";
import { watchBaseOf, type WatchBase } from "../features/watches/watches-api.ts";
import { Button } from "../components/button.tsx";
import { useSessionStore } from "../lib/session-store.ts";
import { useText } from "../lib/text.ts";

export default function BookPage() {
  return (
    <>
      <BookScreen />
      <WatchFromBook />
    </>
  );
}

/** "Watch for a free slot" with the form's date, course and players, once a date and course are chosen. */
function WatchFromBook() {
  const t = useText();
  const user = useSessionStore((s) => s.user);
  const date = useBookStore((s) => s.date);
  const course = useBookStore((s) => s.course);
  const isEditing = useBookStore((s) => s.editTarget !== null);
  const [base, setBase] = useState<WatchBase | null>(null);
  if (!user || !date || !course || isEditing) return null;
  return (
    <div className="page watch-from-book">
      <Button
        variant="secondary"
        onClick={() => {
          const state = useBookStore.getState();
          setBase(watchBaseOf(buildSubmission(state, flightOf(user, state), null)));
        }}
      >
        {t("watches.create")}
      </Button>
      <WatchDialog base={base} onClose={() => setBase(null)} />
    </div>
  );
}
