// A whole-module CommonJS export (module.exports = handler), which a
// routes file requires and registers.
const stripe = require("stripe")(process.env.STRIPE_SECRET_KEY);

// case: reach/commonjs-module-exports silent
module.exports = async (req, res, ctx) => {
  await stripe.subscriptions.create({ customer: req.body.customer, items: [{ price: req.body.price }] }); // a route's create
  res.send({ ok: true });
};
