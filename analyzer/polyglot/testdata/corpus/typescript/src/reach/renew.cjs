// The same shape handed to a scheduler instead.
const stripe = require("stripe")(process.env.STRIPE_SECRET_KEY);

async function renewAll(rows) {
  for (const row of rows) {
    // case: reach/commonjs-module-exports finding
    await stripe.invoices.create({ customer: row.customer }); // want IDEM002
  }
}
module.exports = renewAll;
