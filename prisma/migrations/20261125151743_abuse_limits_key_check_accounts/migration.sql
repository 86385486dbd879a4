-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "disabledAt" TIMESTAMPTZ(3),
ADD COLUMN     "publicWalletCharges" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "publicWalletMaxAmount" INTEGER DEFAULT 1000;

-- CreateTable
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL,
    "points" INTEGER NOT NULL,
    "expire" TIMESTAMPTZ(3),

    CONSTRAINT "RateLimit_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "KeyCheck" (
    "id" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "key" BYTEA NOT NULL,
    "value" BYTEA NOT NULL,

    CONSTRAINT "KeyCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RateLimit_expire_idx" ON "RateLimit"("expire");
