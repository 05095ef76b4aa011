export default { kit: {} };
