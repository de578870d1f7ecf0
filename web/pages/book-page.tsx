import { BookScreen } from "../features/book/book-screen.tsx";

export default function BookPage() {
  return <BookScreen />;
}
