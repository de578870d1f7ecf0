// The admin page is a chunk of its own, loaded by the router inside the member area's layout; what it
// shares with the member area (zod, the text catalogue) is one chunk both load (decision 193).
import { AdminArea } from "../features/admin/admin-area.tsx";

export default function AdminPage() {
  return <AdminArea />;
}
