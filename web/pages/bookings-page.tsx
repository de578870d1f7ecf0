import { BookingsScreen } from "../features/bookings/bookings-screen.tsx";

export default function BookingsPage() {
  return <BookingsScreen />;
}
