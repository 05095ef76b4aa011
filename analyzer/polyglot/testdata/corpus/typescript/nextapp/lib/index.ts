export * from "./payouts";
