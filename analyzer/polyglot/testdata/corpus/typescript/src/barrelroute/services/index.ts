export * from "./approve.service";
export * from "./nightly.service";
