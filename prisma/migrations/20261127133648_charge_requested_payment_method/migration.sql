-- AlterTable
ALTER TABLE "Charge" ADD COLUMN     "requestedPaymentMethodId" TEXT;

-- A saved-method charge still being made, that had not moved on to a fallback, was asked of the
-- method it names: a resumed charge plans its routes from it (older charges are never resumed).
UPDATE "Charge" SET "requestedPaymentMethodId" = "paymentMethodId"
WHERE "status" = 'PROCESSING' AND "paymentMethodId" IS NOT NULL AND "attemptCount" <= 1;

-- A subscription's payment that had moved on to its fallback was asked of the subscription's method
-- when that method's fallback is the one it names.
UPDATE "Charge" c SET "requestedPaymentMethodId" = s."paymentMethodId"
FROM "Subscription" s, "PaymentMethod" m
WHERE c."status" = 'PROCESSING' AND c."attemptCount" > 1 AND c."subscriptionId" = s."id"
  AND m."id" = s."paymentMethodId" AND m."fallbackPaymentMethodId" = c."paymentMethodId";
