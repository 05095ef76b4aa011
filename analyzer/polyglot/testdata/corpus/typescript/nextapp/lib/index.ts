export * from "./payouts";
export { transferFeeLeftover, transferFeeMonthly as monthlyFee } from "./fees";
