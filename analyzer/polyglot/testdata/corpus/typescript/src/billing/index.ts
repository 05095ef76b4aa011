import * as payments from "./stripe";

export const Billing = { payments };
