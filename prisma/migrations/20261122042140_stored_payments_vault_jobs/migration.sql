-- CreateEnum
CREATE TYPE "PaymentTokenStatus" AS ENUM ('ACTIVE', 'USED', 'EXPIRED');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED');

-- AlterTable
ALTER TABLE "Charge" ADD COLUMN     "bankAccountName" TEXT,
ADD COLUMN     "bankAccountNumber" TEXT,
ADD COLUMN     "bankCode" TEXT,
ADD COLUMN     "batchId" TEXT,
ADD COLUMN     "customerId" TEXT,
ADD COLUMN     "networkTokenId" TEXT,
ADD COLUMN     "paymentMethodId" TEXT,
ADD COLUMN     "paymentTokenId" TEXT,
ADD COLUMN     "recurring" BOOLEAN,
ADD COLUMN     "subscriptionId" TEXT,
ADD COLUMN     "transfer" JSONB;

-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "credentialNames" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "credentials" BYTEA,
ADD COLUMN     "credentialsKey" BYTEA,
ADD COLUMN     "credentialsKeyId" TEXT,
ADD COLUMN     "fallbackProviderId" TEXT,
ADD COLUMN     "settlementDelayMs" INTEGER NOT NULL DEFAULT 2000,
ADD COLUMN     "threeDsProviderId" TEXT;

-- CreateTable
CREATE TABLE "Customer" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "reference" TEXT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "ip" TEXT,
    "address" JSONB,
    "metadata" JSONB,
    "webhook" JSONB,
    "defaultPaymentMethodId" TEXT,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateRemoved" TIMESTAMPTZ(3),

    CONSTRAINT "Customer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentMethod" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "customerId" TEXT,
    "type" TEXT NOT NULL,
    "providerId" TEXT,
    "providerPaymentMethodId" TEXT,
    "providerPaymentMethodData" JSONB,
    "singleUse" BOOLEAN NOT NULL DEFAULT false,
    "usedAt" TIMESTAMPTZ(3),
    "cardMasked" TEXT,
    "cardIin" TEXT,
    "cardScheme" TEXT,
    "cardType" TEXT,
    "cardExpiry" TEXT,
    "cardholder" TEXT,
    "cardIssuer" TEXT,
    "cardCountryCode" TEXT,
    "cardCountry" TEXT,
    "vaultItemId" TEXT,
    "bankCode" TEXT,
    "bankAccountNumber" TEXT,
    "bankAccountName" TEXT,
    "payTo" JSONB,
    "networkTokenId" TEXT,
    "networkToken" JSONB,
    "paymentTokenId" TEXT,
    "fallbackPaymentMethodId" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "ip" TEXT,
    "metadata" JSONB,
    "webhook" JSONB,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateRemoved" TIMESTAMPTZ(3),

    CONSTRAINT "PaymentMethod_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaymentToken" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "vaultItemId" TEXT,
    "status" "PaymentTokenStatus" NOT NULL DEFAULT 'ACTIVE',
    "cardMasked" TEXT,
    "cardIin" TEXT,
    "cardScheme" TEXT,
    "cardType" TEXT,
    "cardExpiry" TEXT,
    "cardholder" TEXT,
    "ip" TEXT,
    "metadata" JSONB,
    "usedBy" TEXT,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateUsed" TIMESTAMPTZ(3),
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PaymentToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VaultItem" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "panKeyId" TEXT,
    "panKey" BYTEA,
    "pan" BYTEA,
    "ccvKeyId" TEXT,
    "ccvKey" BYTEA,
    "ccv" BYTEA,
    "maskedCardNumber" TEXT NOT NULL,
    "iin" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "expireDate" TIMESTAMPTZ(3),
    "createdDate" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ccvErasedAt" TIMESTAMPTZ(3),
    "dateRemoved" TIMESTAMPTZ(3),

    CONSTRAINT "VaultItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VaultAccess" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "vaultItemId" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "fields" TEXT[],
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VaultAccess_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "queue" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'PENDING',
    "runAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 10,
    "lockedBy" TEXT,
    "lockedUntil" TIMESTAMPTZ(3),
    "lastError" TEXT,
    "dedupeKey" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Customer_accountId_dateAdded_idx" ON "Customer"("accountId", "dateAdded" DESC);

-- CreateIndex
CREATE INDEX "Customer_accountId_reference_idx" ON "Customer"("accountId", "reference");

-- CreateIndex
CREATE INDEX "Customer_accountId_email_idx" ON "Customer"("accountId", "email");

-- CreateIndex
CREATE INDEX "PaymentMethod_accountId_dateAdded_idx" ON "PaymentMethod"("accountId", "dateAdded" DESC);

-- CreateIndex
CREATE INDEX "PaymentMethod_accountId_customerId_idx" ON "PaymentMethod"("accountId", "customerId");

-- CreateIndex
CREATE INDEX "PaymentToken_accountId_dateAdded_idx" ON "PaymentToken"("accountId", "dateAdded" DESC);

-- CreateIndex
CREATE INDEX "VaultItem_accountId_createdDate_idx" ON "VaultItem"("accountId", "createdDate");

-- CreateIndex
CREATE INDEX "VaultItem_expireDate_idx" ON "VaultItem"("expireDate");

-- CreateIndex
CREATE INDEX "VaultAccess_vaultItemId_at_idx" ON "VaultAccess"("vaultItemId", "at");

-- CreateIndex
CREATE INDEX "VaultAccess_accountId_at_idx" ON "VaultAccess"("accountId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "Job_dedupeKey_key" ON "Job"("dedupeKey");

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

-- CreateIndex
CREATE INDEX "Job_queue_status_idx" ON "Job"("queue", "status");

-- CreateIndex
CREATE INDEX "Charge_accountId_customerId_idx" ON "Charge"("accountId", "customerId");

-- CreateIndex
CREATE INDEX "Charge_accountId_paymentMethodId_idx" ON "Charge"("accountId", "paymentMethodId");

-- AddForeignKey
ALTER TABLE "Charge" ADD CONSTRAINT "Charge_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Charge" ADD CONSTRAINT "Charge_paymentMethodId_fkey" FOREIGN KEY ("paymentMethodId") REFERENCES "PaymentMethod"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Customer" ADD CONSTRAINT "Customer_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentMethod" ADD CONSTRAINT "PaymentMethod_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentMethod" ADD CONSTRAINT "PaymentMethod_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentMethod" ADD CONSTRAINT "PaymentMethod_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentMethod" ADD CONSTRAINT "PaymentMethod_vaultItemId_fkey" FOREIGN KEY ("vaultItemId") REFERENCES "VaultItem"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentToken" ADD CONSTRAINT "PaymentToken_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentToken" ADD CONSTRAINT "PaymentToken_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "Provider"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentToken" ADD CONSTRAINT "PaymentToken_vaultItemId_fkey" FOREIGN KEY ("vaultItemId") REFERENCES "VaultItem"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VaultItem" ADD CONSTRAINT "VaultItem_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VaultAccess" ADD CONSTRAINT "VaultAccess_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VaultAccess" ADD CONSTRAINT "VaultAccess_vaultItemId_fkey" FOREIGN KEY ("vaultItemId") REFERENCES "VaultItem"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
