import "../helpers/dom.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useBookStore } from "../../web/features/book/book-store.ts";
import { MONDAY, renderScreens, resetBookTest, serveApi, setLiveData } from "./book-fixtures.tsx";

beforeEach(() => {
  serveApi();
  setLiveData();
});

afterEach(resetBookTest);

const button = (name: string | RegExp) => screen.getByRole("button", { name });

/** Desktop page, Monday on Masters: at 06:00 the Monday morning rule (min 2, max 3, one guest); at 12:00 the defaults. */
function openPlayers(time = "06:00") {
  renderScreens("/book");
  fireEvent.click(document.querySelector(`[data-date="${MONDAY}"]`)!);
  fireEvent.click(button(/^Masters/));
  fireEvent.click(document.querySelector(`[data-time="${time}"]`)!);
}

const row = (n: number) => screen.getByRole("listitem", { name: `Player ${n}` });
const alerts = () => screen.queryAllByRole("alert").map((a) => a.textContent);
const savedItem = (name: string) => button(`Add ${name}`).closest("li") as HTMLElement;

describe("the flight", () => {
  test("starts with the member, locked, with the profile cart", () => {
    openPlayers();
    const you = screen.getByRole("listitem", { name: "You" });
    expect(you.textContent).toContain("Juan Dela Cruz");
    expect(you.textContent).toContain("SW-2000");
    expect(you.textContent).toContain("Rental Cart - Solo");
    expect(within(you).queryAllByRole("textbox")).toHaveLength(0);
    expect(within(you).queryAllByRole("combobox")).toHaveLength(0);
    expect(screen.getByTestId("player-count").textContent).toBe("1 of 3 players");
  });

  test("a saved player joins with locked fields", () => {
    openPlayers();
    fireEvent.click(button("Add Maria Santos"));
    const added = row(2);
    expect(added.textContent).toContain("Santos");
    expect(added.textContent).toContain("SW-1001");
    expect(added.textContent).toContain("Own Cart");
    expect(within(added).queryAllByRole("textbox")).toHaveLength(0);
    expect(within(added).queryAllByRole("combobox")).toHaveLength(0);
  });

  test("a typed player gets the profile's cart and fee; a guest's fee follows the guest default", async () => {
    openPlayers("12:00");
    fireEvent.click(button("Add a player"));
    const typed = row(2);
    const [type, cart, fee] = within(typed).getAllByRole("combobox") as HTMLSelectElement[];
    expect(type.value).toBe("Member");
    await waitFor(() => expect(cart.value).toBe("Rental Cart - Solo"));
    expect(fee.value).toBe("Charge to their account");
    fireEvent.change(type, { target: { value: "Guest" } });
    expect((within(row(2)).getAllByRole("combobox")[2] as HTMLSelectElement).value).toBe("Charge my guest");
  });

  test("Member, Spouse and Dependent show last name and member id; others first and last name", () => {
    openPlayers("12:00");
    fireEvent.click(button("Add a player"));
    const labels = () =>
      within(row(2))
        .getAllByRole("textbox")
        .map((i) => i.closest("label")?.querySelector(".field__label")?.textContent);
    for (const type of ["Member", "Spouse", "Dependent"]) {
      fireEvent.change(within(row(2)).getAllByRole("combobox")[0], { target: { value: type } });
      expect(labels()).toEqual(["Last name", "Membership #"]);
    }
    for (const type of ["Guest", "Senior Care"]) {
      fireEvent.change(within(row(2)).getAllByRole("combobox")[0], { target: { value: type } });
      expect(labels()).toEqual(["First name", "Last name"]);
    }
  });

  test("the member id is upper-cased on entry", () => {
    openPlayers("12:00");
    fireEvent.click(button("Add a player"));
    const id = within(row(2)).getByLabelText("Membership #") as HTMLInputElement;
    fireEvent.change(id, { target: { value: "sw-1001-s" } });
    expect(id.value).toBe("SW-1001-S");
    expect(useBookStore.getState().players[0].memberId).toBe("SW-1001-S");
  });
});

describe("every limit and message of the players step", () => {
  test("'Maximum of {maxPlayers} players allowed.' beside the add button", () => {
    openPlayers();
    fireEvent.click(button("Add Maria Santos"));
    fireEvent.click(button("Add a player"));
    fireEvent.click(button("Add a player"));
    const add = button("Add a player").parentElement as HTMLElement;
    expect(within(add).getByRole("alert").textContent).toBe("Maximum of 3 players allowed.");
    expect(useBookStore.getState().players).toHaveLength(2);
  });

  test("'Maximum of {maxGuests} guest(s) allowed.' beside the saved player", () => {
    openPlayers();
    fireEvent.click(button("Add Pedro Guest"));
    fireEvent.click(button("Add Lola Care"));
    expect(within(savedItem("Lola Care")).getByRole("alert").textContent).toBe("Maximum of 1 guest(s) allowed.");
    expect(useBookStore.getState().players).toHaveLength(1);
  });

  test("a typed row turned guest over the limit is flagged on that row", () => {
    openPlayers();
    fireEvent.click(button("Add Pedro Guest"));
    fireEvent.click(button("Add a player"));
    fireEvent.change(within(row(3)).getAllByRole("combobox")[0], { target: { value: "Guest" } });
    expect(within(row(3)).getByRole("alert").textContent).toBe("Maximum of 1 guest(s) allowed.");
  });

  test("'Player already in flight.' when a saved player is added twice", () => {
    openPlayers("12:00");
    fireEvent.click(button("Add Maria Santos"));
    fireEvent.click(button("Add Maria Santos"));
    expect(within(savedItem("Maria Santos")).getByRole("alert").textContent).toBe("Player already in flight.");
    expect(useBookStore.getState().players).toHaveLength(1);
  });

  test("'Minimum of {minPlayers} players required.' while the flight is short", () => {
    openPlayers();
    expect(screen.getByText("Minimum of 2 players required.")).toBeTruthy();
    fireEvent.click(button("Add Maria Santos"));
    expect(screen.queryByText("Minimum of 2 players required.")).toBeNull();
  });

  test("'This player is already in the flight.' on a duplicate member row", () => {
    openPlayers("12:00");
    for (const n of [2, 3]) {
      fireEvent.click(button("Add a player"));
      fireEvent.change(within(row(n)).getByLabelText("Last name"), { target: { value: "Santos" } });
      fireEvent.change(within(row(n)).getByLabelText("Membership #"), { target: { value: "sw-1001" } });
    }
    expect(within(row(2)).queryByRole("alert")).toBeNull();
    expect(within(row(3)).getByRole("alert").textContent).toBe("This player is already in the flight.");
  });

  test("'You cannot add yourself as another player.' from the saved list and on a typed row", () => {
    openPlayers("12:00");
    fireEvent.click(button("Add Juan Dela Cruz"));
    expect(within(savedItem("Juan Dela Cruz")).getByRole("alert").textContent).toBe("You cannot add yourself as another player.");
    fireEvent.click(button("Add a player"));
    fireEvent.change(within(row(2)).getByLabelText("Membership #"), { target: { value: "sw-2000" } });
    expect(within(row(2)).getByRole("alert").textContent).toBe("You cannot add yourself as another player.");
  });

  test("an incomplete player blocks the submit and is flagged on its row", () => {
    openPlayers("12:00");
    fireEvent.click(button("Add a player"));
    expect(within(row(2)).queryByRole("alert")).toBeNull();
    fireEvent.click(button("Submit request"));
    expect(alerts()).toContain("Please complete all required fields.");
    expect(within(row(2)).getByRole("alert").textContent).toBe("Please complete all required fields.");
    fireEvent.change(within(row(2)).getByLabelText("Last name"), { target: { value: "Reyes" } });
    fireEvent.change(within(row(2)).getByLabelText("Membership #"), { target: { value: "SW-1002" } });
    expect(within(row(2)).queryByRole("alert")).toBeNull();
  });

  test("removing a player frees the place", () => {
    openPlayers();
    fireEvent.click(button("Add Maria Santos"));
    fireEvent.click(button("Add a player"));
    fireEvent.click(button("Add a player"));
    fireEvent.click(within(row(3)).getByRole("button", { name: "Remove" }));
    expect(alerts()).not.toContain("Maximum of 3 players allowed.");
    fireEvent.click(button("Add a player"));
    expect(useBookStore.getState().players).toHaveLength(2);
  });
});
