-- CreateEnum
CREATE TYPE "ChargeStatus" AS ENUM ('PROCESSING', 'PENDING', 'FAILED', 'SUCCESS', 'PARTIAL_REFUND', 'REFUND', 'PENDING_CHECKOUT', 'AUTHORISE', 'AUTHORISE_CANCELLED');

-- CreateEnum
CREATE TYPE "RefundStatus" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED');

-- CreateEnum
CREATE TYPE "IdempotencyState" AS ENUM ('IN_PROGRESS', 'COMPLETED');

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secretKeyHash" TEXT NOT NULL,
    "secretKeyHint" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "defaultCurrency" TEXT NOT NULL DEFAULT 'AUD',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Provider" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "environment" TEXT NOT NULL DEFAULT 'SANDBOX',
    "currency" TEXT NOT NULL,
    "country" TEXT,
    "latencyMinMs" INTEGER NOT NULL DEFAULT 20,
    "latencyMaxMs" INTEGER NOT NULL DEFAULT 150,
    "timeoutMs" INTEGER NOT NULL DEFAULT 10000,
    "additionalParameters" JSONB NOT NULL DEFAULT '{}',
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateRemoved" TIMESTAMPTZ(3),

    CONSTRAINT "Provider_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProviderFee" (
    "id" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "cardScheme" TEXT,
    "isInternationalCard" BOOLEAN,
    "fixedMinor" BIGINT NOT NULL DEFAULT 0,
    "percentage" DECIMAL(9,4) NOT NULL DEFAULT 0,

    CONSTRAINT "ProviderFee_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Charge" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT,
    "providerChargeId" TEXT,
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "status" "ChargeStatus" NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "capturedAmount" BIGINT NOT NULL DEFAULT 0,
    "refundedAmount" BIGINT NOT NULL DEFAULT 0,
    "refundPendingAmount" BIGINT NOT NULL DEFAULT 0,
    "pendingOperation" TEXT,
    "pendingOperationAt" TIMESTAMPTZ(3),
    "estimatedCost" BIGINT,
    "estimatedCostCurrency" TEXT,
    "paymentType" TEXT NOT NULL DEFAULT 'CARD',
    "cardMasked" TEXT,
    "cardIin" TEXT,
    "cardScheme" TEXT,
    "cardType" TEXT,
    "cardExpiry" TEXT,
    "cardholder" TEXT,
    "cardIssuer" TEXT,
    "cardCountryCode" TEXT,
    "cardCountry" TEXT,
    "reference" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "firstName" TEXT,
    "lastName" TEXT,
    "customerCode" TEXT,
    "invoiceNumber" TEXT,
    "ip" TEXT,
    "descriptor" TEXT,
    "initiator" TEXT,
    "threeDsNotificationUrl" TEXT,
    "address" JSONB,
    "order" JSONB,
    "geolocation" JSONB,
    "metadata" JSONB,
    "webhook" JSONB,
    "failureCode" INTEGER,
    "failureMessage" TEXT,
    "gatewayCode" TEXT,
    "gatewayMessage" TEXT,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "successDate" TIMESTAMPTZ(3),
    "voidDate" TIMESTAMPTZ(3),

    CONSTRAINT "Charge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Refund" (
    "id" TEXT NOT NULL,
    "chargeId" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "comment" TEXT,
    "status" "RefundStatus" NOT NULL,
    "providerRefundId" TEXT,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Refund_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChargeAttempt" (
    "id" TEXT NOT NULL,
    "chargeId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "dateAttempted" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "errorCode" INTEGER NOT NULL,
    "errorMessage" TEXT NOT NULL,
    "gatewayCode" TEXT,
    "gatewayMessage" TEXT,
    "isRetryable" BOOLEAN NOT NULL,

    CONSTRAINT "ChargeAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "accountId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "state" "IdempotencyState" NOT NULL,
    "responseStatus" INTEGER,
    "responseBody" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("accountId","key")
);

-- CreateIndex
CREATE UNIQUE INDEX "Account_secretKeyHash_key" ON "Account"("secretKeyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Account_publicKey_key" ON "Account"("publicKey");

-- CreateIndex
CREATE INDEX "Provider_accountId_dateAdded_idx" ON "Provider"("accountId", "dateAdded");

-- CreateIndex
CREATE INDEX "ProviderFee_providerId_idx" ON "ProviderFee"("providerId");

-- CreateIndex
CREATE INDEX "Charge_accountId_dateAdded_idx" ON "Charge"("accountId", "dateAdded" DESC);

-- CreateIndex
CREATE INDEX "Charge_accountId_reference_idx" ON "Charge"("accountId", "reference");

-- CreateIndex
CREATE INDEX "Charge_accountId_status_idx" ON "Charge"("accountId", "status");

-- CreateIndex
CREATE INDEX "Charge_status_dateAdded_idx" ON "Charge"("status", "dateAdded");

-- CreateIndex
CREATE INDEX "Refund_chargeId_dateAdded_idx" ON "Refund"("chargeId", "dateAdded");

-- CreateIndex
CREATE INDEX "ChargeAttempt_chargeId_dateAttempted_idx" ON "ChargeAttempt"("chargeId", "dateAttempted");

-- CreateIndex
CREATE INDEX "IdempotencyKey_createdAt_idx" ON "IdempotencyKey"("createdAt");

-- AddForeignKey
ALTER TABLE "Provider" ADD CONSTRAINT "Provider_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProviderFee" ADD CONSTRAINT "ProviderFee_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Charge" ADD CONSTRAINT "Charge_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Charge" ADD CONSTRAINT "Charge_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_chargeId_fkey" FOREIGN KEY ("chargeId") REFERENCES "Charge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChargeAttempt" ADD CONSTRAINT "ChargeAttempt_chargeId_fkey" FOREIGN KEY ("chargeId") REFERENCES "Charge"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChargeAttempt" ADD CONSTRAINT "ChargeAttempt_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
