export * from "./random";
export { encodedId as orderKey } from "./random";
