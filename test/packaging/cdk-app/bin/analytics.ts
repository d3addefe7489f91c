#!/usr/bin/env node
import * as cdk from 'aws-cdk-lib';
import { AnalyticsStack } from '../lib/analytics-stack';

const app = new cdk.App();
new AnalyticsStack(app, 'AnalyticsStack');
