// CommonJS controllers: exports.name = handler, registered by a routes
// file that destructures require().
const stripe = require("stripe")(process.env.STRIPE_SECRET_KEY);

// case: reach/commonjs-export silent
exports.refundRoute = async (req, res) => {
  const r = await stripe.refunds.create({ payment_intent: req.body.paymentIntent }); // only an HTTP route calls it
  res.json(r);
};

// case: reach/commonjs-export finding
exports.refundLater = async (payment) => {
  await stripe.refunds.create({ payment_intent: payment.intent, amount: 500 }); // want IDEM002
};
