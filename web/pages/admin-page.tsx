// The admin page is shown inside the member area's layout: importing that chunk here keeps the
// member area one chunk (the modules both use would otherwise be split into small shared files).
import "./member-area.ts";
import { AdminArea } from "../features/admin/admin-area.tsx";

export default function AdminPage() {
  return <AdminArea />;
}
