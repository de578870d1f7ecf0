import { PlaceholderPage } from "../components/placeholder-page.tsx";

export default function BookingsPage() {
  return <PlaceholderPage titleKey="bookings.title" />;
}
