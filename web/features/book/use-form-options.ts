/**
 * The player type, cart and fee choices (GET /v1/form-options); the domain's fallbacks stand in for a
 * category with none loaded.
 */
import { useEffect, useState } from "react";
import { optionValues, type FormOption } from "../../../src/domain/form-options.ts";
import { formOptionsResponseSchema } from "../../../src/features/system/system.schemas.ts";
import { getJson } from "../../lib/api.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import { clientLog } from "../../lib/client-log.ts";

export interface BookingChoices {
  playerTypes: string[];
  carts: string[];
  guestFees: string[];
  memberFees: string[];
}

export function choicesFrom(options: readonly FormOption[]): BookingChoices {
  return {
    playerTypes: optionValues(options, "playerType"),
    carts: optionValues(options, "cartPreference"),
    guestFees: optionValues(options, "feePreferenceGuest"),
    memberFees: optionValues(options, "feePreferenceMember"),
  };
}

export const DEFAULT_CHOICES: BookingChoices = choicesFrom([]);

// The options change only when an admin edits them; one load per page session is enough.
let loading: Promise<BookingChoices> | null = null;

function loadChoices(): Promise<BookingChoices> {
  loading ??= getJson(apiPaths.formOptions, formOptionsResponseSchema)
    .then((options) => choicesFrom(options))
    .catch((error: unknown) => {
      // Data-fetch failures are only logged; the fallbacks keep the form usable.
      clientLog.error("Failed to load form options", { error: error instanceof Error ? error.message : String(error) });
      loading = null;
      return DEFAULT_CHOICES;
    });
  return loading;
}

/** Tests start each case without the cached load. */
export function forgetFormOptions(): void {
  loading = null;
}

export function useBookingChoices(): BookingChoices {
  const [choices, setChoices] = useState<BookingChoices>(DEFAULT_CHOICES);
  useEffect(() => {
    let isCurrent = true;
    void loadChoices().then((loaded) => {
      if (isCurrent) setChoices(loaded);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  return choices;
}
